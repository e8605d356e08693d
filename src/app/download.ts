/** Save a file the app made (a policy, an export) through the browser's ordinary download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; give the browser a moment before freeing the blob.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
