-- Issue 24, security finding 1 (docs/decisions/029-who-owns-sign-in-factors.md): a business could link a phone it
-- holds to another business's employee by inviting their email, and then sign in as them. A person's phones are their
-- own sign-in factors now: a business never writes them for an account that exists.

-- What an inviting business typed for the person's phone: that business's own contact number for the membership,
-- never a way to sign in (sign-in reads only user_phones in the core database).
ALTER TABLE memberships ADD COLUMN contact_phone TEXT CHECK (contact_phone IS NULL OR contact_phone GLOB '233[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]');

-- How a number became a way to sign in: 'invitation' is the first number of an account that an invitation made (the
-- person had no account; the inviting business chose it, as invitations always have); 'owner' is a number its owner
-- proved with a code sent to it while signed in. Every number linked before this migration counts as the owner's.
ALTER TABLE user_phones ADD COLUMN linked_by TEXT NOT NULL DEFAULT 'owner' CHECK (linked_by IN ('invitation', 'owner'));
