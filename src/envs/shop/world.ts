/**
 * Everything a shop episode reads and never writes: the catalog, its search index and the task
 * splits. Built once per catalog seed and shared by every ShopEnv, because building the index is
 * the expensive part and episodes only read it.
 */
import type { Task } from '../../core/types.ts';
import { DEFAULT_CATALOG_SEED, generateCatalog, type Catalog } from './catalog.ts';
import { ProductSearch } from './search.ts';
import { buildShopTasks, type ShopSplit } from './tasks.ts';

export interface ShopWorld {
  catalog: Catalog;
  search: ProductSearch;
  tasks: Record<ShopSplit, Task[]>;
}

const worlds = new Map<string, ShopWorld>();

export function shopWorld(seed: string = DEFAULT_CATALOG_SEED): ShopWorld {
  let world = worlds.get(seed);
  if (!world) {
    const catalog = generateCatalog(seed);
    world = { catalog, search: new ProductSearch(catalog), tasks: buildShopTasks(catalog, `${seed}:tasks`) };
    worlds.set(seed, world);
  }
  return world;
}
