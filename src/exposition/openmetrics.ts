// Turns prom-client's text 0.0.4 output into OpenMetrics 1.0. prom-client can render OpenMetrics itself, but
// doing so renames its counter objects in place (drops `_total`), which corrupts every later text scrape.

/** Converts families rendered in text 0.0.4 (without `# EOF`); the caller appends `# EOF` once at the end. */
export function textToOpenMetrics(text: string): string {
  const counters = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) counter$/gm)) counters.add(m[1] as string);
  const family = (name: string): string => (counters.has(name) ? name.replace(/_total$/, '') : name);
  let out = '';
  for (const line of text.split('\n')) {
    if (line === '') continue; // OpenMetrics allows no blank lines.
    if (line.startsWith('# HELP ')) {
      const sp = line.indexOf(' ', 7);
      const name = sp < 0 ? line.slice(7) : line.slice(7, sp);
      // Text 0.0.4 leaves quotes in HELP as they are; OpenMetrics escapes them.
      const help = sp < 0 ? '' : line.slice(sp + 1).replace(/"/g, '\\"');
      out += `# HELP ${family(name)} ${help}\n`;
    } else if (line.startsWith('# TYPE ')) {
      const [, , name = '', type = ''] = line.split(' ');
      out += `# TYPE ${family(name)} ${type}\n`;
    } else {
      out += `${line}\n`;
    }
  }
  return out;
}
