import { CloseIcon } from './icons.tsx';

/** An inline error with a dismiss button; screen readers hear it when it appears. */
export function Alert({ message, onDismiss }: { message: string; onDismiss(): void }) {
  return (
    <div class="ab-alert" role="alert">
      <span>{message}</span>
      <button type="button" class="ab-icon-btn ab-small" aria-label="Dismiss alert" onClick={onDismiss}>
        <CloseIcon size={13} />
      </button>
    </div>
  );
}
