/**
 * The stylesheets of lazily loaded screens and dialogs (imported as `./screen.css?url`, each built on its
 * own by scripts/web-build-options.ts): fetched with the screen's code, so the first paint carries only the
 * site's own stylesheet and nothing shows before its rules apply.
 */

const loading = new Map<string, Promise<void>>();

/**
 * Adds the stylesheet to the page once; settles when its rules apply. It goes before the site's stylesheet,
 * where the bundler put these rules when it built one stylesheet, so the site-wide rules keep the last word.
 */
export function loadStylesheet(href: string): Promise<void> {
  let loaded = loading.get(href);
  if (!loaded) {
    loaded = new Promise<void>((resolve, reject) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.dataset.lazy = "";
      link.onload = () => resolve();
      link.onerror = () => {
        link.remove();
        loading.delete(href);
        reject(new Error(`The stylesheet ${href} could not be loaded.`));
      };
      document.head.insertBefore(link, document.head.querySelector('link[rel="stylesheet"]:not([data-lazy])'));
    });
    loading.set(href, loaded);
  }
  return loaded;
}

/** A split-off part's code and the stylesheets it is shown with, fetched side by side: settles when all are in. */
export function withStylesheets<T>(importer: () => Promise<T>, ...hrefs: string[]): () => Promise<T> {
  return async () => {
    const [module] = await Promise.all([importer(), Promise.all(hrefs.map(loadStylesheet))]);
    return module;
  };
}
