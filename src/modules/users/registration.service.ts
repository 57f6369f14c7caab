import { UnitOfWork } from 'src/common/database/unit-of-work';
import { ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { CurrentUser } from 'src/common/types/current-user';
import { MailService } from 'src/modules/mail/mail.service';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import type { RegistrationRequest } from './dto/registration.dto';
import { UsersRepository } from './users.repository';

/** What a registration answers with: the address (as the original writes it) and the names granted. */
export interface Registration {
  email: string;
  role: string;
  tenant: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Registration of new users and password resets by mail (docs/original-behaviour.md#user-registration):
 * each stores a one-time token on the user (`tm_user.token`) and mails a link to Traffic Portal with it.
 */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly tenancy: TenancyService,
    private readonly mail: MailService,
  ) {}

  /**
   * Creates (or renews, for a user who has not finished registering) a user known only by e-mail,
   * then mails the link. The tenant must be within reach (403); the role must exist (404) and, on
   * 3.x, not be above the registering user's (403); a user who finished registering is 409. A mail
   * that cannot be sent undoes everything (503).
   */
  async register(request: RegistrationRequest, user: CurrentUser): Promise<Registration> {
    if (!(await this.tenancy.isWithinReach(user.tenantId, request.tenantId))) {
      throw new ForbiddenException('not authorized on this tenant');
    }
    const role = await this.users.role(request.role);
    if (!role) {
      throw new NotFoundException(
        typeof request.role === 'string' ? 'no such role' : `No such role: ${request.role}`,
      );
    }
    if (typeof request.role === 'number' && role.privLevel > user.privLevel) {
      throw new ForbiddenException('Cannot register a user with a role with higher privileges than yourself');
    }
    this.mail.assertConfigured();
    const token = randomUUID();
    const tenant = await this.users.tenant(request.tenantId);
    await this.unitOfWork.run(async (manager) => {
      const existing = await this.users.lockedByEmail(manager, request.email);
      if (existing && !existing.newUser) {
        throw new ConflictException('User already exists and has completed registration.');
      }
      const registration = { registrationSent: new Date(), roleId: role.id, tenantId: tenant.id, token };
      if (existing) {
        await this.users.change(manager, existing.id, registration);
      } else {
        const suffix = createHash('md5').update(randomBytes(16)).digest('hex');
        await this.users.addWithoutId(manager, {
          ...registration,
          email: request.email,
          newUser: true,
          username: `registration_${suffix}`,
        });
      }
      const instance = await this.instanceName();
      await this.mail.send({
        to: request.email,
        subject: `${instance} New User Registration`,
        html: this.page(
          instance,
          `${instance} New User Registration`,
          `<p>A new account has been created for you on the ${escapeHtml(instance)} Portal. In the ` +
            `${escapeHtml(instance)} Portal, you'll find a dashboard that provides access to all of your ` +
            'Delivery Services.</p>',
          this.link(token),
          'Click here to finish your registration',
        ),
      });
    });
    return { email: request.email, role: role.name, tenant: tenant.name };
  }

  /**
   * Mails a password-reset link to the account with this address: none → 404 `No account with the
   * email address '<email>' was found!`; mail not configured or not sent → 503. The token is kept
   * even when the mail fails, as the original keeps it.
   */
  async resetPassword(email: string): Promise<void> {
    const found = await this.users.idByEmail(email);
    if (found === undefined) {
      throw new NotFoundException(`No account with the email address '${email}' was found!`);
    }
    this.mail.assertConfigured();
    const token = randomUUID();
    await this.users.setToken(found, token);
    const instance = await this.instanceName();
    await this.mail.send({
      to: email,
      subject: `${instance} Password Reset Request`,
      html: this.page(
        instance,
        `${instance} Password Reset Request`,
        `<p>Someone has requested to change your password for the ${escapeHtml(instance)}. If you requested ` +
          'this change, please click the link below and change your password. Otherwise, you can disregard ' +
          'this email.</p>',
        this.link(token),
        'Click to Reset Your Password',
      ),
    });
  }

  /** The `tm.instance_name` global parameter; `Traffic Ops` without one. */
  private async instanceName(): Promise<string> {
    return (await this.users.instanceName()) ?? 'Traffic Ops';
  }

  private link(token: string): string {
    return `${this.mail.portalBaseUrl}/user?token=${token}`;
  }

  private page(instance: string, title: string, text: string, href: string, label: string): string {
    return [
      '<!DOCTYPE html>',
      '<html lang="en">',
      `<head><title>${escapeHtml(title)}</title><meta charset="utf-8"/></head>`,
      '<body>',
      `<main>${text}<p><a href="${escapeHtml(href)}" target="_blank">${escapeHtml(label)}</a></p></main>`,
      `<footer><p>Thank you,<br/>The ${escapeHtml(instance)} Team</p></footer>`,
      '</body>',
      '</html>',
    ].join('\r\n');
  }
}
