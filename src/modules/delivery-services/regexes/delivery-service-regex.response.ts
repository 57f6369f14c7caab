/** One regex of a delivery service's match list (lib/go-tc DeliveryServiceRegex), every version. */
export interface DeliveryServiceRegex {
  type: string;
  setNumber: number;
  pattern: string;
}

/** The regexes of one delivery service, named by its xmlId (lib/go-tc DeliveryServiceRegexes). */
export interface DeliveryServiceRegexes {
  dsName: string;
  regexes: DeliveryServiceRegex[];
}

/** A regex of deliveryservices/{id}/regexes (lib/go-tc DeliveryServiceIDRegex), every version. */
export interface DeliveryServiceIdRegex {
  id: number;
  type: number;
  typeName: string;
  setNumber: number;
  pattern: string;
}
