import { statusClass, statusLabel, type StatusEntity, type StatusOf } from "../lib/statuses";

/** A status as a coloured pill, in the words of app/lib/statuses.ts. */
export function StatusPill<E extends StatusEntity>({ entity, status }: { entity: E; status: StatusOf<E> }) {
  return <span className={statusClass(entity, status)}>{statusLabel(entity, status)}</span>;
}
