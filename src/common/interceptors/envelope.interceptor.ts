import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, EmptyBody } from 'src/common/http/alerts';
import { JSON_CONTENT_TYPE, serializeJson } from 'src/common/http/json';
import { requestedVersion } from 'src/common/versioning/api-version';
import { WireCompatService } from 'src/common/wire/wire-compat.service';
import { dateFormatFor, type WireCompat, WireTimes } from 'src/common/wire/wire-times';

/**
 * Wraps what a handler returns in the envelope: a value → `{"response": value}`, an ApiResult →
 * `{"alerts": […], "response": …}`, EmptyBody → an empty 200 (docs/decisions.md#d5). The body is serialized
 * here, dates in the route's format for the requested version (`@WireTimes`, docs/decisions.md#d4); the
 * response-headers middleware hashes the bytes sent.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly compat: WireCompat;

  constructor(
    private readonly reflector: Reflector,
    wire: WireCompatService,
  ) {
    this.compat = wire.mode;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const targets = [context.getHandler(), context.getClass()];
    const raw = this.reflector.getAllAndOverride(RawResponse, targets);
    const rule = this.reflector.getAllAndOverride(WireTimes, targets);
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    const version = rule ? requestedVersion(http.getRequest<Request>()) : undefined;
    const format = version ? dateFormatFor(rule, version, this.compat) : undefined;
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof EmptyBody) {
          res.type('text/plain');
          return '';
        }
        const body = raw ? result : result instanceof ApiResult ? result.toBody() : { response: result };
        res.setHeader('Content-Type', JSON_CONTENT_TYPE);
        return serializeJson(body, format);
      }),
    );
  }
}
