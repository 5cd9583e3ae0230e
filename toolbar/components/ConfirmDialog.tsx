import { useLayoutEffect, useRef } from 'preact/hooks';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal confirmation inside the panel: focus starts on Cancel (the safe choice), stays inside
 * while open, and Escape cancels.
 */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  // Before paint: a key pressed as soon as the dialog shows must reach it, not what was focused.
  useLayoutEffect(() => {
    cancel.current?.focus();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
      return;
    }
    if (e.key !== 'Tab' || !dialog.current) return;
    const buttons = [...dialog.current.querySelectorAll('button')];
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    const active = (dialog.current.getRootNode() as ShadowRoot | Document).activeElement;
    if (e.shiftKey && active === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first?.focus();
    }
  };

  return (
    <div class="ab-dialog-backdrop" onClick={(e) => e.target === e.currentTarget && onCancel()}>
      <div
        ref={dialog}
        class="ab-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="ab-dialog-title"
        aria-describedby="ab-dialog-message"
        onKeyDown={onKeyDown}
      >
        <h2 id="ab-dialog-title">{title}</h2>
        <p id="ab-dialog-message">{message}</p>
        <div class="ab-dialog-actions">
          <button ref={cancel} type="button" class="ab-btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" class="ab-btn ab-danger-solid" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
