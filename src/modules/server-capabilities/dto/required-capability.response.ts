/** A delivery service's required capability, as the list reads it. */
export interface RequiredCapabilityRow {
  deliveryServiceId: number;
  requiredCapability: string;
  lastUpdated: Date;
  /** Absent from a write's response, as in the original's (`omitempty`, not read back). */
  xmlId?: string;
}

/**
 * 3.x and 4.x (lib/go-tc DeliveryServicesRequiredCapability); a `Date` is written as `YYYY-MM-DD
 * HH:MM:SS+00`. The route does not exist on 5.0.
 */
export interface DeliveryServicesRequiredCapabilityV3 {
  deliveryServiceID: number;
  lastUpdated: Date | string;
  requiredCapability: string;
  xmlID?: string;
}

export function toRequiredCapabilityResponse(
  row: RequiredCapabilityRow,
): DeliveryServicesRequiredCapabilityV3 {
  const wire: DeliveryServicesRequiredCapabilityV3 = {
    deliveryServiceID: row.deliveryServiceId,
    lastUpdated: row.lastUpdated,
    requiredCapability: row.requiredCapability,
  };
  return row.xmlId === undefined ? wire : { ...wire, xmlID: row.xmlId };
}
