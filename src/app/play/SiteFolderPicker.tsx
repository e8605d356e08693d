import { busy, closeSiteFolder, openSite, openSiteFolder } from './play-store.ts';

/** The folder's files by their path inside it (`pages/a.html`), from a directory input's selection. */
function folderFiles(list: FileList): { folder: string; files: Map<string, Blob> } {
  const files = new Map<string, Blob>();
  let folder = '';
  for (const file of list) {
    const [top, ...rest] = (file.webkitRelativePath || file.name).split('/');
    folder ||= top ?? '';
    files.set(rest.length > 0 ? rest.join('/') : file.name, file);
  }
  return { folder, files };
}

/**
 * Bring your own site: a folder of pages with a site.json becomes the `web` environment. Its
 * pages run in frames of their own opaque origin, so they cannot reach this app's storage.
 */
export function SiteFolderPicker() {
  return (
    <div class="row">
      <label for="site-folder">Open a site folder</label>
      <input id="site-folder" type="file" disabled={busy.value}
        // A folder, not files (not in Preact's typings; every current browser supports it).
        {...{ webkitdirectory: true }}
        onChange={(e) => {
          const input = e.target as HTMLInputElement;
          if (input.files && input.files.length > 0) {
            const { folder, files } = folderFiles(input.files);
            void openSiteFolder(folder, files);
          }
          input.value = '';
        }} />
      {openSite.value
        ? <><span class="muted small">Playing the site <strong>{openSite.value}</strong>.</span><button type="button" onClick={() => void closeSiteFolder()}>Back to the bundled suite</button></>
        : <span class="muted small">A folder with a site.json and its pages (see docs/web.md, "Bring your own site").</span>}
    </div>
  );
}
