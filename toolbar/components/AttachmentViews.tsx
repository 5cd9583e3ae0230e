import { useState } from 'preact/hooks';
import { dataUrlBytes } from '../../shared/data-url.ts';
import { formatBytes } from '../../shared/format.ts';
import { FileIcon } from './icons.tsx';

const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(;[\w.+-]+=[\w.+-]+)*;base64,/;

/** An image from a message, small until clicked. Only base64 image data URLs are ever shown. */
export function ImagePreview({ src, label = 'Attached image' }: { src: string; label?: string }) {
  const [expanded, setExpanded] = useState(false);
  if (!src.startsWith('data:image/') || !DATA_URL.test(src)) return <span class="ab-note">[image not shown]</span>;
  return (
    <button
      type="button"
      class={expanded ? 'ab-image-btn ab-expanded' : 'ab-image-btn'}
      aria-label={expanded ? `Shrink ${label.toLowerCase()}` : `Enlarge ${label.toLowerCase()}`}
      aria-expanded={expanded}
      onClick={() => setExpanded(!expanded)}
    >
      <img src={src} alt={label} loading="lazy" decoding="async" />
    </button>
  );
}

/** A file from a message, downloadable straight from its data URL. */
export function FileLink({ data, filename, mimeType }: { data: string; filename?: string | undefined; mimeType: string }) {
  const name = filename || 'file';
  if (!DATA_URL.test(data)) return <span class="ab-note">[file {name} not shown]</span>;
  return (
    <a class="ab-file" href={data} download={name} aria-label={`Download ${name}`} title={`${name} (${mimeType})`}>
      <FileIcon size={15} />
      <span>{name}</span>
      <small>{formatBytes(dataUrlBytes(data))}</small>
    </a>
  );
}
