import { useMemo } from 'preact/hooks';

/** Shown JSON stops here: a tool's output can be huge, the card stays light. */
const MAX_SHOWN = 20_000;

/** Pretty JSON (strings as they are), cut to a readable length. */
export function formatJson(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n… (${text.length - MAX_SHOWN} more characters)` : text;
}

export function JsonView({ value, label }: { value: unknown; label: string }) {
  const text = useMemo(() => formatJson(value), [value]);
  return (
    <pre class="ab-json" aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
}
