/**
 * The size check every file import makes before reading a byte: a file larger than its kind can be
 * is refused with one message, so a wrong file (a video, a whole buffer) never reaches a parser.
 */
export function tooLargeMessage(file: { name: string; size: number }, maxBytes: number, kind: string): string | null {
  if (file.size <= maxBytes) return null;
  const bytes = (n: number) => n.toLocaleString('en-US');
  return `${file.name} is ${bytes(file.size)} bytes, more than the ${bytes(maxBytes)} bytes ${kind} may be; it is probably not one.`;
}
