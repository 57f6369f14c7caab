import { byVersion, rfc3339 } from 'src/common/wire/by-version';
import type { ServiceCategory } from 'src/modules/service-categories/service-category.entity';

/** 3.x/4.x `tc.ServiceCategory`: `lastUpdated` in the original's `TimeNoMod` form. */
export interface ServiceCategoryV3 {
  lastUpdated: Date;
  name: string;
}

/** 5.0 `tc.ServiceCategoryV5`: `lastUpdated` is RFC 3339. */
export interface ServiceCategoryV5 {
  lastUpdated: string;
  name: string;
}

export const toServiceCategoryResponse = byVersion<ServiceCategory, ServiceCategoryV3 | ServiceCategoryV5>({
  '3.0': (sc): ServiceCategoryV3 => ({ lastUpdated: sc.lastUpdated, name: sc.name }),
  '5.0': (sc): ServiceCategoryV5 => ({ lastUpdated: rfc3339(sc.lastUpdated), name: sc.name }),
});
