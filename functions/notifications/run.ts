// One run of notifications for a business (decision 053): the fan-out writes who must be told what, then the emails
// and text messages due are sent. Run after every change a person makes (the Worker's ctx.waitUntil, after the
// response), from the notifications queue, and by the 5-minute cron for every business, so nothing depends on which
// page made the change or whether a send failed.
import type { FullConfig } from "../env";
import type { BusinessDb, Db } from "../tenancy/tenant";
import { smsPortFor } from "../sms/sms";
import { emailPortFor } from "./email";
import { emailConfigOf } from "./email-settings";
import { writeDigests } from "./digest.db";
import { fanOut, type FanOutOptions } from "./fan-out.db";
import { hasNotificationsQueue, queueSending } from "./queue";
import { sendDueNotices, type SendRun, type SendSettings } from "./send";

const NOTHING_SENT: SendRun = { sent: 0, retrying: 0, dead: 0, folded: 0, later: 0 };

export interface NotifyRun extends SendRun {
  written: number;
  /** Why emails were not sent (an email setting to fix); the notices are in the inbox all the same. */
  emailProblem?: string;
}

/** What sending needs from the deployment's settings: the ports of both channels, the links' origin and key. */
export function sendSettingsOf(env: Env, config: Pick<FullConfig, "app" | "auth">): SendSettings & { emailProblem?: string } {
  const email = emailConfigOf(env);
  return {
    email: email.sender.provider === null ? null : emailPortFor(email.sender, env),
    ...(email.sender.provider === null ? { emailProblem: email.sender.problem } : {}),
    sms: smsPortFor(config.auth, env.DB),
    portalUrl: email.portalUrl,
    linkSecret: config.app.sessionSecret,
  };
}

export async function notifyBusiness(
  env: Env,
  business: BusinessDb,
  config: Pick<FullConfig, "app" | "auth">,
  options: Omit<FanOutOptions, "core"> & { core?: Db } = {},
): Promise<NotifyRun> {
  const now = options.now ?? Date.now();
  const written = await fanOut(business, { core: env.DB, ...options, now });
  const settings = sendSettingsOf(env, config);
  const problem = settings.emailProblem ? { emailProblem: settings.emailProblem } : {};
  // After a change, the queue's consumer sends (queue.ts); the cron sends itself, whatever a lost message left.
  if (options.scope === "change" && hasNotificationsQueue(env)) {
    if (written > 0) await queueSending(env, business.businessId);
    return { written, ...NOTHING_SENT, ...problem };
  }
  const run = await sendDueNotices(business, settings, now);
  return { written, ...run, ...problem };
}

/** Every business's run; the first email problem fails the job (the Jobs screen names the setting), after all ran. */
export async function notifyEveryBusiness(env: Env, businesses: BusinessDb[], config: Pick<FullConfig, "app" | "auth">, now: number): Promise<NotifyRun> {
  const total: NotifyRun = { written: 0, ...NOTHING_SENT };
  for (const business of businesses) {
    const run = await notifyBusiness(env, business, config, { now, scope: "everything" });
    addRun(total, run);
    total.emailProblem ??= run.emailProblem;
  }
  if (total.emailProblem) throw new Error(total.emailProblem);
  return total;
}

/** The 07:00 digest of every business, then its sending (the digest is never held by the hourly cap). */
export async function digestEveryBusiness(env: Env, businesses: BusinessDb[], config: Pick<FullConfig, "app" | "auth">, now: number): Promise<NotifyRun> {
  const settings = sendSettingsOf(env, config);
  const total: NotifyRun = { written: 0, ...NOTHING_SENT };
  for (const business of businesses) addRun(total, { written: await writeDigests(business, now), ...(await sendDueNotices(business, settings, now)) });
  if (settings.emailProblem) throw new Error(settings.emailProblem);
  return total;
}

function addRun(total: NotifyRun, run: NotifyRun): void {
  for (const key of ["written", "sent", "retrying", "dead", "folded", "later"] as const) total[key] += run[key];
}
