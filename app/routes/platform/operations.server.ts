// Asking for a platform operation (run a job now, move a business, replay a queue): the request is recorded and the
// asker is taken to it, where another Platform Administrator decides (functions/operators/operations.ts applies it).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { refusalMessage } from "#server/guards";
import type { PlatformRequest } from "#server/operators/guards";
import { askPlatform } from "#server/operators/requests";
import type { PlatformRequestKind } from "#server/operators/requests.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refuse } from "#server/plumbing/http";

export async function askOperation(
  request: Request,
  context: AppLoadContext,
  maker: PlatformRequest,
  kind: Extract<PlatformRequestKind, "run_job" | "move_business" | "replay_queue">,
  subjectId: string,
  after: Record<string, unknown>,
) {
  try {
    const asked = await askPlatform(maker, kind, subjectId, after);
    const message = asked.made ? "Asked: another Platform Administrator decides it." : "A request like this already waits for a decision.";
    throw await redirectWithFlash(request, context.config.app, platformPaths.platformRequest(asked.id), { kind: asked.made ? "success" : "info", message });
  } catch (error) {
    if (error instanceof Response) throw error;
    return refuse({ form: refusalMessage(request, error) });
  }
}
