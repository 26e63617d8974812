import { resources } from '../generated/resources';

/**
 * A generated resource's configuration (fields, endpoints, list) by its name, for a hand-written page
 * that follows the same schema. Call it when needed, not at module load: the generated table imports
 * the pages, so a page reading it at load would meet it half-built.
 */
export function resourceConfig(name: string) {
  return resources.find((r) => r.config.name === name)!.config;
}
