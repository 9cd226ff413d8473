import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console serves the built app itself; in development vite proxies the API and the websocket to it.
const consoleUrl = 'http://127.0.0.1:6688';

export default defineConfig({
  plugins: [react()],
  // Relative base: the console may serve the app under a safe-entry path, not only at '/'.
  base: './',
  build: { outDir: 'dist' },
  server: {
    proxy: {
      '/magapi': { target: consoleUrl, changeOrigin: true },
      '/ws': { target: consoleUrl, ws: true, changeOrigin: true },
    },
  },
});
