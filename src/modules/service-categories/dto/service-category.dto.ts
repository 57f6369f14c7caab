import { RequiredString, Pattern } from 'src/common/validation/rules';

/**
 * Body of POST /service_categories and PUT /service_categories/{name} on 3.x and 4.x: a required
 * name of letters, digits and dashes (docs/original-behaviour.md#service-categories).
 */
export class ServiceCategoryV3Dto {
  @RequiredString()
  @Pattern(/^[A-Za-z0-9-]*$/, 'must consist of only alphanumeric or dash characters.')
  name!: string;
}

/** The 5.0 body: underscores are allowed too, and the message says so. */
export class ServiceCategoryV5Dto {
  @RequiredString()
  @Pattern(/^[A-Za-z0-9_-]*$/, 'must consist of only alphanumeric, dash, or underscore characters')
  name!: string;
}

export const SERVICE_CATEGORY_BODIES = { '3.0': ServiceCategoryV3Dto, '5.0': ServiceCategoryV5Dto };
