// docs/benchmarks.md is written by hand; the bench only replaces the tables between a pair of markers of its part,
// so the prose stays the author's and each part keeps the run that produced it.

const open = (part: string): string => `<!-- bench:${part} -->`;
const close = (part: string): string => `<!-- /bench:${part} -->`;

export function pasteBetweenMarkers(doc: string, part: string, text: string): string {
  const start = doc.indexOf(open(part));
  const end = doc.indexOf(close(part));
  if (start < 0 || end < start) {
    throw new Error(
      `the document has no ${open(part)} … ${close(part)} pair to write the ${part} tables into`,
    );
  }
  return `${doc.slice(0, start + open(part).length)}\n${text.trim()}\n${doc.slice(end)}`;
}
