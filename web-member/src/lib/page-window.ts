/**
 * The page numbers a pager shows: a window of at most `size` pages around the current one,
 * moved inwards at either end so it always holds `size` pages when there are that many
 * (seed 000 §9: bonus table "5 page buttons").
 */
export function pageWindow(current: number, last: number, size = 5): number[] {
  const total = Math.max(1, Math.floor(last));
  const width = Math.min(size, total);
  const page = Math.min(Math.max(1, Math.floor(current)), total);
  const start = Math.min(Math.max(1, page - Math.floor((width - 1) / 2)), total - width + 1);
  return Array.from({ length: width }, (_, i) => start + i);
}
