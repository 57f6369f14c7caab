import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, GoStruct, type GoStructOptions } from 'src/common/validation/go-struct';
import { intProblem } from 'src/common/validation/integers';
import { bodyTypeFor, type BodyContext } from 'src/common/validation/valid-body';
import { validateBody } from 'src/common/validation/versioned-body';
import {
  DELIVERY_SERVICE_BODIES,
  type DeliveryServiceBody,
} from 'src/modules/delivery-services/core/delivery-service.dto';

export const CHANGE_TYPES = ['create', 'update', 'delete'] as const;
export const REQUEST_STATUSES = ['draft', 'submitted', 'rejected', 'pending', 'complete'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A delivery service of the request: the validated body, and its JSON as stored. */
export interface RequestedDeliveryService {
  body: DeliveryServiceBody;
  json: Record<string, unknown>;
}

/**
 * Body of POST /deliveryservice_requests and PUT /deliveryservice_requests?id= on 4.0+
 * (docs/original-behaviour.md#deliveryservice-requests). What the original's JSON decoding refuses
 * answers `decoding: …` here (an unknown change type or status, wrong types, and the delivery
 * services' own types, read with the delivery service body of the version); the rules that need the
 * database are the service's. Hand-read (allow-listed): `requested` and `original` are delivery
 * service bodies of the request's version, validated by their class-validator classes (asynchronously)
 * in field order between the decoded fields, where a @GoStruct decodes synchronously and without the
 * version.
 */
export class DeliveryServiceRequestBody {
  id?: number;
  assignee?: string | null;
  changeType!: string;
  status!: string;
  requested?: RequestedDeliveryService | null;
  original?: RequestedDeliveryService | null;

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      assignee: { type: 'string', nullable: true },
      changeType: { type: 'string', enum: [...CHANGE_TYPES] },
      status: { type: 'string', enum: [...REQUEST_STATUSES] },
      requested: { type: 'object', description: 'a delivery service of the version', nullable: true },
      original: { type: 'object', description: 'a delivery service of the version', nullable: true },
    },
    required: ['changeType', 'status'],
  };

  static readonly parse = async (raw: unknown, { present, version }: BodyContext) => {
    if (!present) {
      throw new BadRequestException('decoding: EOF');
    }
    if (!isPlainObject(raw)) {
      throw new BadRequestException('decoding: the request body must be a JSON object');
    }
    const body = new DeliveryServiceRequestBody();
    const text = (field: string): string | null | undefined => {
      const value = raw[field];
      if (value !== undefined && value !== null && typeof value !== 'string') {
        throw new BadRequestException(`decoding: '${field}' must be a string`);
      }
      return value;
    };
    if (raw.id !== undefined && raw.id !== null) {
      const problem = intProblem(raw.id);
      if (problem) {
        throw new BadRequestException(`decoding: 'id' ${problem}`);
      }
      body.id = raw.id as number;
    }
    body.assignee = text('assignee');
    const changeType = text('changeType');
    if (changeType !== undefined && changeType !== null) {
      const known = CHANGE_TYPES.find((t) => t === changeType.toLowerCase());
      if (!known) {
        throw new BadRequestException(
          `decoding: invalid Delivery Service Request changeType: '${changeType}'`,
        );
      }
      body.changeType = known;
    } else {
      body.changeType = '';
    }
    const status = text('status') ?? '';
    if (status !== '' && !(REQUEST_STATUSES as readonly string[]).includes(status)) {
      throw new BadRequestException(`decoding: ${status} is not a valid RequestStatus name`);
    }
    body.status = status;
    const type = bodyTypeFor(DELIVERY_SERVICE_BODIES, version)!;
    for (const field of ['requested', 'original'] as const) {
      const value = raw[field];
      if (value === undefined || value === null) {
        body[field] = null;
        continue;
      }
      if (!isPlainObject(value)) {
        throw new BadRequestException(`decoding: '${field}' must be a JSON object`);
      }
      try {
        const ds = (await validateBody(value, type)) as DeliveryServiceBody;
        const json = JSON.parse(JSON.stringify(ds)) as Record<string, unknown>;
        // The delivery service body has no `id` (it comes from the path there); a request's has.
        if (value.id !== undefined && value.id !== null) {
          const problem = intProblem(value.id);
          if (problem) {
            throw new BadRequestException(`'id' ${problem}`);
          }
          json.id = value.id;
        }
        body[field] = { body: ds, json };
      } catch (error) {
        if (error instanceof BadRequestException) {
          throw new BadRequestException(`decoding: ${field}: ${error.message}`);
        }
        throw error;
      }
    }
    return body;
  };
}

/** How the original's request routes read a body (api.Parse): its decoding problems as `decoding: …`. */
const DECODING: GoStructOptions = {
  failure: 'decoding: ',
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'decoding: the request body must be a JSON object',
};

/** A 32-bit integer field: `'<field>' must be an integer` or out of its range. */
const int32 = (field: string): PropertyDecorator =>
  GoField.decoded(
    (value) => {
      const problem = intProblem(value);
      if (problem) {
        throw new GoDecodeError(`'${field}' ${problem}`);
      }
      return value;
    },
    { type: 'integer', nullable: true },
  );

/** A string field: `'<field>' must be a string`; then, when given, `rule`'s problem of the value. */
const text = (
  field: string,
  schema: JsonSchema = {},
  rule?: (value: string) => string | undefined,
  required = false,
): PropertyDecorator =>
  GoField.decoded(
    (value) => {
      if (typeof value !== 'string') {
        throw new GoDecodeError(`'${field}' must be a string`);
      }
      const problem = rule?.(value);
      if (problem !== undefined) {
        throw new GoDecodeError(problem);
      }
      return value;
    },
    { type: 'string', ...schema },
    { required },
  );

/** A RequestStatus name (or '', none): `<value> is not a valid RequestStatus name`. */
const statusName = (value: string): string | undefined =>
  value !== '' && !(REQUEST_STATUSES as readonly string[]).includes(value)
    ? `${value} is not a valid RequestStatus name`
    : undefined;

/** Body of PUT deliveryservice_requests/{id}/assign: a user by id or by name, or neither (unassign). */
@GoStruct('DeliveryServiceRequestAssignment', DECODING)
export class AssignmentBody {
  @int32('assigneeId')
  assigneeId?: number | null;

  @text('assignee', { nullable: true })
  assignee?: string | null;
}

/** Body of PUT deliveryservice_requests/{id}/status. */
@GoStruct('DeliveryServiceRequestStatusChange', DECODING)
export class StatusChangeBody {
  @text('status', { enum: [...REQUEST_STATUSES] }, statusName, true)
  status = '';
}
