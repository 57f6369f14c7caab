import { IsDefined, IsString, MaxLength } from 'class-validator';
import { ColumnInt, OptionalInt, OptionalString } from 'src/common/validation/rules';

/**
 * Body of POST /deliveryservice_request_comments and PUT …?id= on 3.x/4.x
 * (docs/original-behaviour.md#deliveryservice-request-comments): both fields must be present.
 */
export class DeliveryServiceRequestCommentV3Dto {
  @IsDefined({ message: 'is required' })
  @ColumnInt()
  deliveryServiceRequestId!: number;

  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(65535, { message: 'the length must be at most 65535' })
  value!: string;
}

/** The 5.0 body: absent fields are the Go zero values (0, ""), which the database then judges. */
export class DeliveryServiceRequestCommentV5Dto {
  @OptionalInt()
  deliveryServiceRequestId?: number | null;

  @OptionalString(65535)
  value?: string | null;
}

export const COMMENT_BODIES = {
  '3.0': DeliveryServiceRequestCommentV3Dto,
  '5.0': DeliveryServiceRequestCommentV5Dto,
};
