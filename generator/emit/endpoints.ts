/** adapters/generated/endpoints.ts: the data provider's map from entity and action to legacy path. */
import type { Model } from '../model';
import { tsHeader, literal } from './common';

export function emitEndpoints(model: Model): Record<string, string> {
  const map: Record<string, Record<string, string>> = {};
  for (const { name, resource } of model.entities) {
    map[name] = Object.fromEntries(Object.entries(resource.endpoints).map(([action, ep]) => [action, ep.path]));
  }
  return {
    'adapters/generated/endpoints.ts': `${tsHeader}\nexport const endpoints = ${literal(map)} as const;\n\nexport type EntityName = keyof typeof endpoints;\n`,
  };
}
