import { useEffect, useState } from 'preact/hooks';
import { CheckIcon, CopyIcon } from './icons.tsx';

/** A fenced code block with its language and a copy button. */
export function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');

  useEffect(() => {
    if (copied === 'idle') return;
    const timer = setTimeout(() => setCopied('idle'), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    const clipboard = globalThis.navigator?.clipboard;
    if (!clipboard) {
      setCopied('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setCopied('done'),
      () => setCopied('failed'),
    );
  };

  return (
    <div class="ab-code">
      <div class="ab-code-head">
        <span>{lang || 'text'}</span>
        <button type="button" class="ab-icon-btn" aria-label="Copy code" onClick={copy}>
          {copied === 'done' ? <CheckIcon size={12} /> : <CopyIcon size={12} />}
          <span aria-live="polite">{copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}</span>
        </button>
      </div>
      {/* Focusable, so keyboard users can scroll a long or wide block (axe: scrollable-region-focusable). */}
      <pre tabIndex={0} aria-label={`${lang || 'Text'} code`}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
