// Escaping of the Prometheus text format (0.0.4) and OpenMetrics 1.0, which agree for label values:
// backslash, double quote and line feed are escaped, every other character (any Unicode) is written as is.

const LABEL_SPECIALS = /[\\"\n]/;

export function escapeLabelValue(value: string): string {
  // Most values need no escaping: testing first spares three replace passes over each of them.
  if (!LABEL_SPECIALS.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** The two formats a family is written in: Prometheus text 0.0.4 and OpenMetrics 1.0. */
export type ExpositionFormat = 'text' | 'openmetrics';

/** HELP text: backslash and line feed escaped in both formats; OpenMetrics escapes double quotes too. */
export function escapeHelp(text: string, format: ExpositionFormat = 'text'): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
  return format === 'openmetrics' ? escaped.replace(/"/g, '\\"') : escaped;
}
