import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, EmptyBody } from 'src/common/http/alerts';
import { JSON_CONTENT_TYPE, serializeJson } from 'src/common/http/json';

/**
 * Wraps what a handler returns in the envelope: a value → `{"response": value}`, an ApiResult →
 * `{"alerts": […], "response": …}`, EmptyBody → an empty 200 (docs/decisions.md#d5). The body is serialized
 * here, dates as docs/decisions.md#d4 says; the response-headers middleware hashes the bytes sent.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.reflector.getAllAndOverride(RawResponse, [context.getHandler(), context.getClass()]);
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof EmptyBody) {
          res.type('text/plain');
          return '';
        }
        const body = raw ? result : result instanceof ApiResult ? result.toBody() : { response: result };
        res.setHeader('Content-Type', JSON_CONTENT_TYPE);
        return serializeJson(body);
      }),
    );
  }
}
