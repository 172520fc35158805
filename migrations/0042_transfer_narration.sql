-- A transfer's narration: the optional line the person who asks writes for the checker and the statement (at most 100
-- characters, one line; the form's valibot rule is the real check, the CHECK is the database's last word).
ALTER TABLE transfers ADD COLUMN narration TEXT CHECK (narration IS NULL OR (length(narration) BETWEEN 1 AND 100));
