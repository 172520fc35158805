// The development SMS outbox holds every text the portal sends: codes, the lifecycle's and webhooks' texts, and since
// decision 053 the notifications' ("Partners Portal, <business>: …"). A test about codes or those texts counts and
// reads them without the notifications, which arrive on their own time after a change.

/** SQL: a row of dev_outbox that is not a notification's text. */
export const NOT_A_NOTICE = "instr(body, 'Partners Portal, ') = 0";

/** Whether an outbox message's body is a notification's text. */
export const isNoticeText = (body: string) => body.includes("Partners Portal, ");
