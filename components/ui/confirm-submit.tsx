"use client";

import { useRef, type ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";

/**
 * A submit button for destructive forms that asks first, in a native <dialog> (focus-trapped,
 * Escape closes). The form's server action still re-checks everything on the server.
 */
export function ConfirmSubmit({
  label,
  title,
  children,
  variant = "danger",
  confirmLabel,
  dismissLabel = "Cancel",
}: {
  label: string;
  title: string;
  children: ReactNode;
  variant?: ButtonVariant;
  confirmLabel?: string;
  /** The button that closes the dialog; say "Keep it" when the action itself is a cancel. */
  dismissLabel?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <Button variant={variant} onClick={() => dialog.current?.showModal()}>
        {label}
      </Button>
      <dialog
        ref={dialog}
        aria-label={title}
        className="m-auto w-full max-w-md rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="space-y-3 p-5">
          <h2 className="text-base font-semibold text-slate-900">{title}</h2>
          <div className="text-sm text-slate-600">{children}</div>
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              {dismissLabel}
            </Button>
            <Button type="submit" variant={variant} onClick={() => dialog.current?.close()}>
              {confirmLabel ?? label}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
