// A notice as an email (decision 053): a React component rendered to HTML for mail clients (tables and inline styles,
// which every client reads; no script, no remote image) and the same words as plain text. One link opens the notice
// in the portal (after sign-in), one turns this kind of email off (RFC 8058: the List-Unsubscribe headers, so the mail
// client offers it too), and the profile is where every choice lives.
import { renderToStaticMarkup } from "react-dom/server";
import type { EmailMessage } from "./email";
import { KIND_NAMES, type NotificationKind } from "./kinds";

export interface NoticeEmail {
  to: string;
  businessName: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** Absolute: the portal's address and the notice's open path. */
  openUrl: string;
  /** Null for a security notice, which cannot be turned off. */
  unsubscribeUrl: string | null;
  preferencesUrl: string;
  /** A test business's notice: said in the subject and the first line. */
  test: boolean;
  /** The delivery's id: the same for every try. */
  deliveryId: string;
}

const GREEN = "#0b4f3f";
const INK = "#1f2933";
const MUTED = "#52606d";
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

function NoticeEmailBody({ email }: { email: NoticeEmail }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{email.title}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: "#f4f6f8", fontFamily: FONT, color: INK }}>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ background: "#f4f6f8", padding: "24px 12px" }}>
          <tbody>
            <tr>
              <td align="center">
                <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ maxWidth: 560, background: "#ffffff", borderRadius: 8 }}>
                  <tbody>
                    <tr>
                      <td style={{ background: GREEN, color: "#ffffff", padding: "14px 24px", borderRadius: "8px 8px 0 0", fontWeight: 600, fontSize: 16 }}>
                        Partners Portal · {email.businessName}
                      </td>
                    </tr>
                    {email.test ? (
                      <tr>
                        <td style={{ background: "#fff4d6", color: "#7a4d00", padding: "8px 24px", fontSize: 14 }}>
                          Test mode: nothing here touches live money.
                        </td>
                      </tr>
                    ) : null}
                    <tr>
                      <td style={{ padding: "24px 24px 8px", fontSize: 20, fontWeight: 600, lineHeight: 1.3 }}>{email.title}</td>
                    </tr>
                    <tr>
                      <td style={{ padding: "0 24px 20px", fontSize: 16, lineHeight: 1.5, overflowWrap: "anywhere", whiteSpace: "pre-line" }}>{email.body}</td>
                    </tr>
                    <tr>
                      <td style={{ padding: "0 24px 28px" }}>
                        <a
                          href={email.openUrl}
                          style={{
                            display: "inline-block",
                            background: GREEN,
                            color: "#ffffff",
                            padding: "12px 20px",
                            borderRadius: 6,
                            textDecoration: "none",
                            fontWeight: 600,
                          }}
                        >
                          Open in Partners Portal
                        </a>
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "16px 24px 24px", borderTop: "1px solid #e4e7eb", fontSize: 13, lineHeight: 1.5, color: MUTED }}>
                        {email.unsubscribeUrl ? (
                          <>
                            You get this email because &ldquo;{KIND_NAMES[email.kind]}&rdquo; is on for you in {email.businessName}.{" "}
                            <a href={email.unsubscribeUrl} style={{ color: MUTED }}>
                              Stop these emails
                            </a>{" "}
                            or{" "}
                          </>
                        ) : (
                          <>Security notices about your sign-in are always sent, to keep your account yours. You may </>
                        )}
                        <a href={email.preferencesUrl} style={{ color: MUTED }}>
                          choose what you get
                        </a>
                        . The portal never asks for a code, a password or a card number by email.
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

export function noticeSubject(email: Pick<NoticeEmail, "title" | "test">): string {
  return `${email.test ? "[Test] " : ""}${email.title}`;
}

function noticeText(email: NoticeEmail): string {
  return [
    `Partners Portal · ${email.businessName}`,
    ...(email.test ? ["Test mode: nothing here touches live money."] : []),
    "",
    email.title,
    "",
    email.body,
    "",
    `Open in Partners Portal: ${email.openUrl}`,
    "",
    "--",
    ...(email.unsubscribeUrl
      ? [`You get this email because "${KIND_NAMES[email.kind]}" is on for you in ${email.businessName}.`, `Stop these emails: ${email.unsubscribeUrl}`]
      : ["Security notices about your sign-in are always sent, to keep your account yours."]),
    `Choose what you get: ${email.preferencesUrl}`,
    "The portal never asks for a code, a password or a card number by email.",
    "",
  ].join("\n");
}

/** The message a provider is handed. */
export function noticeEmailMessage(email: NoticeEmail): EmailMessage {
  return {
    to: email.to,
    subject: noticeSubject(email),
    html: `<!doctype html>${renderToStaticMarkup(<NoticeEmailBody email={email} />)}`,
    text: noticeText(email),
    headers: email.unsubscribeUrl
      ? {
          "List-Unsubscribe": `<${email.unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
      : {},
    idempotencyKey: email.deliveryId,
  };
}
