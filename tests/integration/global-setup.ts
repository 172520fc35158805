import { requireBuild } from "../support/portal";
import { prepareTemplateState } from "../support/state";

export default async function setup() {
  requireBuild();
  await prepareTemplateState();
}
