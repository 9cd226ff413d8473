import { defineConfig, type Plugin } from 'vite';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';

// The console serves the built app itself; in development vite proxies the API and the websocket to it.
const consoleUrl = 'http://127.0.0.1:6688';

/**
 * Each catalogue part (src/locales/parts/*.ts) holds both languages. Imported from en-US(.pages).ts it
 * becomes `part.ts?lang=en-US`, from zh-CN(.pages).ts `part.ts?lang=zh-CN`: two modules, each keeping only its own
 * language's texts after tree-shaking, so a browser loads the catalogue of its language only.
 */
function localePartsPerLanguage(): Plugin {
  return {
    name: 'rampart:locale-parts-per-language',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const lang = importer ? /[\\/]locales[\\/](en-US|zh-CN)(?:\.pages)?\.ts$/.exec(importer)?.[1] : undefined;
      if (!lang || !source.startsWith('./parts/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved ? `${resolved.id}?lang=${lang}` : null;
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes `file.br` and `file.gz` beside every text file of the build (compressed once, at the
 * highest levels); the console serves them by Accept-Encoding (@fastify/static `preCompressed`).
 * A variant that would not be smaller is not written: the server then sends the file itself.
 */
function precompress(): Plugin {
  return {
    name: 'rampart:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => /\.(js|mjs|css|html|svg|json|txt)$/.test(name))
          .map(async (name) => {
            const path = join(dir, name);
            const raw = await readFile(path);
            const [br, gz] = await Promise.all([
              brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
              gzipped(raw, { level: 9 }),
            ]);
            if (br.length < raw.length) await writeFile(`${path}.br`, br);
            if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
          }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), localePartsPerLanguage(), precompress()],
  // Relative base: the console may serve the app under a safe-entry path, not only at '/'.
  base: './',
  build: {
    outDir: 'dist',
    // Two pages: the console, and the trust terminal (/trust), a small page of its own without React.
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'index.html'), trust: resolve(import.meta.dirname, 'trust.html') } },
  },
  server: {
    proxy: {
      '/magapi': { target: consoleUrl, changeOrigin: true },
      '/ws': { target: consoleUrl, ws: true, changeOrigin: true },
    },
  },
});
