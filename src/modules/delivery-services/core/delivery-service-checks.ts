import { BadRequestException } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import type { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import type { RequiredCapabilitiesService } from 'src/modules/server-capabilities/required-capabilities.service';
import type { DeliveryServicesRepository } from './delivery-services.repository';
import type { DeliveryServiceInput, DeliveryServiceWrite } from './delivery-service.input';
import {
  type DeliveryServiceRules,
  type DsTypeInfo,
  validateDeliveryService,
} from './delivery-service-rules';

/* The checks of a delivery service write that need the database, in the original's words and order. */

export const LONG_DESC_REMOVED =
  'the longDesc1 and longDesc2 fields are no longer supported in API 4.0 onwards';
const SSL_KEYS =
  'delivery service has ssl keys that cannot be automatically changed, therefore %s is immutable';
/** The SSL key version of the delivery service `xmlId` and its type's name, or undefined. */
export async function sslKeysOf(
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  xmlId: string,
): Promise<{ sslKeyVersion: number | null; typeName: string | null } | undefined> {
  const row = await repository.sslKeysOf(manager, xmlId);
  return row
    ? {
        sslKeyVersion: row.sslKeyVersion === null ? null : Number(row.sslKeyVersion),
        typeName: row.typeName,
      }
    : undefined;
}

export function checkLegacyFields({ legacy, carries }: DeliveryServiceWrite): void {
  const given = (v: string | null | undefined) => v !== undefined && v !== null;
  if (!carries.legacyFields && (given(legacy.longDesc1) || given(legacy.longDesc2))) {
    throw new BadRequestException(LONG_DESC_REMOVED);
  }
}

export async function checkSslKeyFields(
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  existing: DeliveryService,
  input: DeliveryServiceInput,
): Promise<void> {
  if (existing.cdnId !== input.cdnId) {
    throw new BadRequestException(SSL_KEYS.replace('%s', 'CDN ID'));
  }
  if (input.cdnName !== undefined && input.cdnName !== null) {
    const cdn = await repository.withCdn(manager, existing.id);
    if (cdn?.cdn?.name !== input.cdnName) {
      throw new BadRequestException(SSL_KEYS.replace('%s', 'CDN Name'));
    }
  }
  if (existing.routingName !== input.routingName) {
    throw new BadRequestException(SSL_KEYS.replace('%s', 'Routing Name'));
  }
}

/**
 * Validation (docs/original-behaviour.md#deliveryservices): the rules need the type the body names,
 * which it answers (undefined when there is none).
 */
export async function validateWrite(
  repository: DeliveryServicesRepository,
  manager: TransactionManager | undefined,
  input: DeliveryServiceInput,
  create: boolean,
  requiredCapabilities: RequiredCapabilitiesService,
  rules: DeliveryServiceRules,
): Promise<DsTypeInfo | undefined> {
  let type: DsTypeInfo | undefined;
  if (typeof input.typeId === 'number' && input.typeId > 0) {
    type = await repository.type(manager, input.typeId);
  }
  const known = await requiredCapabilities.existing(input.requiredCapabilities ?? [], manager);
  const errors = validateDeliveryService(input, type, create, known, rules);
  if (errors.length > 0) {
    throw new BadRequestException(`invalid request: ${errors.join(', ')}`);
  }
  return type;
}
