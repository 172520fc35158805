// A checker's decision as a form posts it: Approve, or Reject with a reason the maker reads. One schema for the
// business's request pages and the platform's (decision 039), so both refuse an empty reason with the same words.
import * as v from "valibot";

export const DecisionForm = v.variant("intent", [
  v.object({ intent: v.literal("approve") }),
  v.object({
    intent: v.literal("reject"),
    reason: v.pipe(
      v.optional(v.string(), ""),
      v.trim(),
      v.minLength(1, "Give a reason for rejecting: the person who asked will read it."),
      v.maxLength(500, "Keep the reason under 500 characters."),
    ),
  }),
]);
export type Decision = v.InferOutput<typeof DecisionForm>;
