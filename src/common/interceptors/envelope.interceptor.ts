import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, EmptyBody } from 'src/common/http/alerts';
import { ConfigService } from '@nestjs/config';
import { JSON_CONTENT_TYPE, serializeJsonByPlan } from 'src/common/http/json';
import { formatTrafficOpsTime } from 'src/common/time/timestamps';
import { type TimePlan, timePlanFor } from 'src/common/wire/schemas/time-plan';
import { routeBodySchema, wireSchemas } from 'src/common/wire/schemas/wire-schemas';
import {
  ApiVersion,
  requestedVersion,
  SERVED_VERSIONS,
  versionInPath,
} from 'src/common/versioning/api-version';
import { WireCompatService } from 'src/common/wire/wire-compat.service';
import { answerWithStatus, CreatedFrom } from 'src/common/wire/created-from';
import type { WireCompat } from 'src/common/wire/wire-compat';
import { dateFormatFor, WireTimes } from 'src/common/wire/wire-times';

/**
 * Wraps what a handler returns in the envelope: a value → `{"response": value}`, an ApiResult →
 * `{"alerts": […], "response": …}`, EmptyBody → an empty 200 (docs/decisions.md#d5). The body is serialized
 * here, dates in the route's format for the requested version (`@WireTimes`, docs/decisions.md#d4),
 * visiting only where the route's wire schema has times (src/common/wire/schemas/time-plan.ts); the
 * response-headers middleware hashes the bytes sent. With WIRE_COMPAT=traffic-ops a creation answers
 * the original's 201 where the route declares `@CreatedFrom` (src/common/wire/created-from.ts).
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly compat: WireCompat;
  private readonly checkTimes: boolean;
  /** By handler, then by version: where its body holds times. */
  private readonly plans = new WeakMap<object, Map<string, TimePlan>>();

  constructor(
    private readonly reflector: Reflector,
    wire: WireCompatService,
    config: ConfigService,
  ) {
    this.compat = wire.mode;
    this.checkTimes = config.get<boolean>('app.checkWireTimes') === true;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const targets = [context.getHandler(), context.getClass()];
    const raw = this.reflector.getAllAndOverride(RawResponse, targets);
    const rule = this.reflector.getAllAndOverride(WireTimes, targets);
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const version = rule ? requestedVersion(req) : undefined;
    const format = version ? dateFormatFor(rule, version, this.compat) : formatTrafficOpsTime;
    if (this.compat === 'traffic-ops') {
      const createdFrom = this.reflector.get(CreatedFrom, context.getHandler());
      if (createdFrom && requestedVersion(req).atLeast(createdFrom)) {
        answerWithStatus(res, 201);
      }
    }
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof EmptyBody) {
          res.type('text/plain');
          return '';
        }
        const body = raw ? result : result instanceof ApiResult ? result.toBody() : { response: result };
        res.setHeader('Content-Type', JSON_CONTENT_TYPE);
        const plan = this.planFor(context, versionInPath(req.path));
        return serializeJsonByPlan(body, format, plan, this.checkTimes);
      }),
    );
  }

  /** Where the handler's body holds times in a version (`undefined`: a route outside the versions). */
  private planFor(context: ExecutionContext, version: string | undefined): TimePlan {
    const handler = context.getHandler();
    let byVersion = this.plans.get(handler);
    if (!byVersion) {
      byVersion = new Map();
      this.plans.set(handler, byVersion);
    }
    const key = version ?? '';
    let plan = byVersion.get(key);
    if (plan === undefined) {
      const route = `${context.getClass().name}.${handler.name}`;
      const parsed = (version && ApiVersion.parse(version)) || ApiVersion.parse(SERVED_VERSIONS[0])!;
      plan = timePlanFor(routeBodySchema(route, parsed), wireSchemas());
      byVersion.set(key, plan);
    }
    return plan;
  }
}
