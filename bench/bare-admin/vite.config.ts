import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Same Vite and React plugin as the console (vite.config.ts at the root), built into dist/bare-admin.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: '../../dist/bare-admin', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
