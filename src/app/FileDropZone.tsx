import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/**
 * A drop target for files: highlighted (`.dropzone.over`) while files are dragged over it, and hands
 * the dropped files to `onFiles`. Its children say what to drop and hold the file picker.
 */
export function FileDropZone({ label, onFiles, children }: { label: string; onFiles: (files: FileList | null | undefined) => void; children: ComponentChildren }) {
  const [over, setOver] = useState(false);
  return (
    <div
      class={`dropzone${over ? ' over' : ''}`}
      role="group"
      aria-label={label}
      onDragEnter={(e) => { e.preventDefault(); setOver(true); }}
      onDragOver={(e) => { e.preventDefault(); if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'; setOver(true); }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => { e.preventDefault(); setOver(false); onFiles(e.dataTransfer?.files); }}
    >
      {children}
    </div>
  );
}
