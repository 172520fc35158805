// An entity's columns are written once, as definitions by id; each screen picks
// the ones it shows, in its order. A picked set asks of the rows only the
// fields its columns read, so a screen's loader sends no more than it shows.
import type { Column } from "#app/components/lists/data-table";

type Definition<Row> = Omit<Column<Row>, "id">;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any row: each definition says its own.
export type ColumnDefinitions = Record<string, Definition<any>>;

type RowOf<D> = D extends { cell: (row: infer Row) => unknown } ? Row : never;
type AllOf<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** The definitions' columns with these ids, in this order; the rows must carry what each of them reads. */
export function pickColumns<Defs extends ColumnDefinitions, Id extends keyof Defs & string>(defs: Defs, ids: readonly Id[]): Column<AllOf<RowOf<Defs[Id]>>>[] {
  return ids.map((id) => ({ id, ...defs[id]! }));
}
