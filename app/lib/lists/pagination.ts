/**
 * The page numbers the pagination control shows: previous, current and next,
 * padded to three at either end (page 1 of 9 shows 1 2 3; page 9 shows 7 8 9).
 */
export function pageWindow(current: number, totalPages: number): number[] {
  if (!Number.isFinite(totalPages) || totalPages < 1) return [];
  const total = Math.floor(totalPages);
  const page = Math.min(Math.max(1, Math.floor(current) || 1), total);
  const first = Math.max(1, Math.min(page - 1, total - 2));
  const last = Math.min(total, first + 2);
  const pages: number[] = [];
  for (let n = first; n <= last; n += 1) pages.push(n);
  return pages;
}
