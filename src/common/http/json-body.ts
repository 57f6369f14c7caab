import {
  BadRequestException,
  HttpException,
  HttpStatus,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { raw, type NextFunction, type Request, type Response } from 'express';
import { parseStrictJson, StrictJsonError } from 'src/common/http/strict-json';

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

function toHttpException(error: unknown): HttpException {
  if (error instanceof StrictJsonError) {
    return new BadRequestException(error.message);
  }
  if (error instanceof SyntaxError) {
    return new BadRequestException(`malformed JSON: ${error.message}`);
  }
  const { type, status, message } = error as BodyParserError;
  if (type === 'entity.too.large') {
    return new PayloadTooLargeException('request body too large');
  }
  return new HttpException(
    message ?? 'unreadable request body',
    status && status >= 400 && status < 500 ? status : HttpStatus.BAD_REQUEST,
  );
}

/** The charset the Content-Type names, if any (`application/json; charset=utf-8` → `utf-8`). */
function charsetOf(req: Request): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(req.headers['content-type'] ?? '');
  return match ? match[1] : undefined;
}

/**
 * Request bodies are JSON whatever their Content-Type says, as the original reads them
 * (docs/decisions.md#d21), and strict JSON (src/common/http/strict-json.ts): UTF-8 only (another
 * declared charset is a 415), bounded nesting, no duplicate keys, no unpaired surrogates or NUL
 * characters. Unreadable or oversized bodies become the API's own 400, 413 and 415 alerts.
 */
export function jsonBody(limit: string) {
  const read = raw({ limit, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    read(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(toHttpException(error));
        return;
      }
      if (!Buffer.isBuffer(req.body)) {
        next(); // no body at all
        return;
      }
      const charset = charsetOf(req);
      if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
        next(new UnsupportedMediaTypeException(`unsupported charset "${charset.toUpperCase()}"`));
        return;
      }
      try {
        req.body = parseStrictJson(req.body);
      } catch (problem) {
        next(toHttpException(problem));
        return;
      }
      next();
    });
  };
}
