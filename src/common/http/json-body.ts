import { BadRequestException, HttpException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import { json, type NextFunction, type Request, type Response } from 'express';

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

function toHttpException(error: BodyParserError): HttpException {
  switch (error.type) {
    case 'entity.parse.failed':
      return new BadRequestException(`malformed JSON: ${error.message ?? 'unreadable body'}`);
    case 'entity.too.large':
      return new PayloadTooLargeException('request body too large');
    default:
      return new HttpException(
        error.message ?? 'unreadable request body',
        error.status && error.status >= 400 && error.status < 500 ? error.status : HttpStatus.BAD_REQUEST,
      );
  }
}

/**
 * Request bodies are JSON whatever their Content-Type says, as the original reads them
 * (docs/decisions.md#d21); unreadable or oversized bodies become the API's own 400 and 413 alerts.
 */
export function jsonBody(limit: string) {
  const parse = json({ limit, type: () => true, strict: false });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    parse(req, res, (error?: unknown) => {
      next(error === undefined ? undefined : toHttpException(error as BodyParserError));
    });
  };
}
