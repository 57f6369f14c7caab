import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';
import { intProblem } from 'src/common/validation/integers';

/** PUT servers/{id}/status: the status by name or id, and why the server goes down. */
export interface ServerStatusRequest {
  status?: { id: number } | { name: string };
  offlineReason?: string;
}

/**
 * The body of PUT servers/{id}/status (lib/go-tc ServerPutStatus). `status` is a status id (an
 * integer, or a string of digits) or a name (any other string), as the original reads it; a missing
 * or null status is answered later (`status is required`), after the server's checks.
 */
export class ServerStatusBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      status: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
      offlineReason: { type: 'string', nullable: true },
    },
    required: ['status'],
  };

  static readonly parse = (raw: unknown): ServerStatusRequest => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new BadRequestException(BODY_NOT_AN_OBJECT);
    }
    const { status, offlineReason } = raw as Record<string, unknown>;
    const request: ServerStatusRequest = {};
    if (typeof status === 'string') {
      request.status = /^[+-]?\d+$/.test(status) ? { id: Number(status) } : { name: status };
    } else if (typeof status === 'number') {
      request.status = { id: status };
    } else if (status !== undefined && status !== null) {
      throw new BadRequestException("malformed JSON: 'status' must be a status name or id");
    }
    if (request.status && 'id' in request.status) {
      const problem = intProblem(request.status.id);
      if (problem !== undefined) {
        throw new BadRequestException(`malformed JSON: 'status' ${problem}`);
      }
    }
    if (typeof offlineReason === 'string') {
      request.offlineReason = offlineReason;
    } else if (offlineReason !== undefined && offlineReason !== null) {
      throw new BadRequestException("malformed JSON: 'offlineReason' must be a string");
    }
    return request;
  };
}
