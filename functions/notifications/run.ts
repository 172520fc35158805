// One run of notifications for a business (decision 053): the fan-out writes who must be told what, then the emails
// due are sent. Run after every change a person makes (the Worker's ctx.waitUntil, after the response) and by the
// 5-minute cron for every business, so nothing depends on which page made the change or whether a send failed.
import type { BusinessDb } from "../tenancy/tenant";
import { emailPortFor } from "./email";
import { emailConfigOf } from "./email-settings";
import { fanOut } from "./fan-out.db";
import { sendDueNotices, type SendRun } from "./send";

export interface NotifyRun extends Partial<SendRun> {
  written: number;
  /** Why emails were not sent (an email setting to fix); the notices are in the inbox all the same. */
  emailProblem?: string;
}

export async function notifyBusiness(env: Env, business: BusinessDb, linkSecret: string, now: number = Date.now()): Promise<NotifyRun> {
  const written = await fanOut(business, now);
  const email = emailConfigOf(env);
  if (email.sender.provider === null) return { written, emailProblem: email.sender.problem };
  const run = await sendDueNotices(business, { port: emailPortFor(email.sender, env), portalUrl: email.portalUrl, linkSecret }, now);
  return { written, ...run };
}

/** Every business's run; the first email problem fails the job (the Jobs screen names the setting), after all ran. */
export async function notifyEveryBusiness(env: Env, businesses: BusinessDb[], linkSecret: string, now: number): Promise<NotifyRun> {
  const total: NotifyRun = { written: 0, sent: 0, retrying: 0, dead: 0 };
  for (const business of businesses) {
    const run = await notifyBusiness(env, business, linkSecret, now);
    total.written += run.written;
    total.sent! += run.sent ?? 0;
    total.retrying! += run.retrying ?? 0;
    total.dead! += run.dead ?? 0;
    total.emailProblem ??= run.emailProblem;
  }
  if (total.emailProblem) throw new Error(total.emailProblem);
  return total;
}
