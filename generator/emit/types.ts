/** adapters/generated/types.ts: one interface per entity, as the API sends and receives it. */
import { compile } from 'json-schema-to-typescript';
import type { Model, Entity } from '../model';
import { tsHeader } from './common';

function pascal(name: string): string {
  return name[0].toUpperCase() + name.slice(1);
}

function forTypescript(entity: Entity): object {
  const properties: Record<string, object> = {};
  for (const [name, p] of Object.entries(entity.schema.properties)) {
    const { type, enum: values } = p;
    properties[name] = {
      type,
      ...(values ? { enum: values } : {}),
      description: p['x-label']['en-US'] + (p['x-label']['zh-CN'] !== p['x-label']['en-US'] ? ` (${p['x-label']['zh-CN']})` : ''),
    };
  }
  for (const [rel, r] of Object.entries(entity.schema['x-db'].relations ?? {})) {
    properties[rel] = { tsType: pascal(r.entity), description: `The ${r.entity} that ${r.from} names.` };
  }
  return { type: 'object', title: pascal(entity.name), properties, required: ['fId'].filter((f) => f in properties), additionalProperties: false };
}

export async function emitTypes(model: Model): Promise<Record<string, string>> {
  const parts: string[] = [];
  for (const entity of model.entities) {
    parts.push(await compile(forTypescript(entity) as never, pascal(entity.name), { bannerComment: '', format: true, strictIndexSignatures: true }));
  }
  return { 'adapters/generated/types.ts': tsHeader + '\n' + parts.join('\n') };
}
