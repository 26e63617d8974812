/**
 * A Vite plugin that writes a gzip and a brotli copy next to every text file of the build (.js, .css,
 * .html, .svg, .json over 1 KB), at the highest levels, once per build. The API server sends them
 * to browsers that accept them (@fastify/static `preCompressed`), so no response is compressed per
 * request.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(js|css|html|svg|json)$/;
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!TEXT.test(file) || statSync(file).size < MIN_BYTES) continue;
        const body = readFileSync(file);
        writeFileSync(file + '.gz', gzipSync(body, { level: 9 }));
        writeFileSync(file + '.br', brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
      }
    },
  };
}
