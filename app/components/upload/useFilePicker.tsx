import { useRef, useState } from 'react';

export interface FilePickerOptions {
  /** The <input accept> list: extensions and media types. */
  accept: string;
  /** data-testid of the hidden <input>, where the browser tests set their file. */
  testId: string;
  /** What the picked file goes to (its checks, then its upload); `busy` holds until it settles. */
  onFile: (file: File) => unknown;
}

/**
 * A file chooser behind a button of the caller's own: `input` is the hidden <input type=file> to render,
 * `choose()` opens the browser's dialog, `busy` is true while `onFile` runs (the button's spinner).
 */
export function useFilePicker({ accept, testId, onFile }: FilePickerOptions) {
  const ref = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const input = (
    <input
      ref={ref}
      type="file"
      hidden
      accept={accept}
      data-testid={testId}
      onChange={(e) => {
        const file = e.target.files?.[0];
        // Emptied at once, so choosing the same file again is a change too.
        e.target.value = '';
        if (!file) return;
        setBusy(true);
        void Promise.resolve(onFile(file)).finally(() => setBusy(false));
      }}
    />
  );
  return { input, busy, choose: () => ref.current?.click() };
}
