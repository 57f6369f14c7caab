import { RequiredString } from 'src/common/validation/rules';

/** Body of POST /cdn_notifications (docs/original-behaviour.md#cdn-notifications). */
export class CdnNotificationDto {
  @RequiredString()
  cdn!: string;

  @RequiredString(65535)
  notification!: string;
}
