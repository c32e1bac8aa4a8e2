import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CodeLoginForm } from './CodeLoginForm';
import { LoginForm } from './LoginForm';

// The login page's variants (decision 0935) as markup: the plain form is unchanged without them.

const noop = async () => {};

describe('login form variants', () => {
  it('shows neither the device button nor the code option unless asked', () => {
    const html = renderToStaticMarkup(<LoginForm appName="Takt Floor" onSubmit={noop} />);
    expect(html).toContain('Log in');
    expect(html).not.toContain('Use this device');
    expect(html).not.toContain('Sign in with a code instead');
  });

  it('adds "Use this device" with its hint, and the code option', () => {
    const html = renderToStaticMarkup(
      <LoginForm
        appName="Takt Office"
        onSubmit={noop}
        onUseDevice={noop}
        deviceHint="Makes this device a tablet"
        onUseCode={() => {}}
        forgotPasswordHref="/app/forgot-password"
      />,
    );
    expect(html).toMatch(/<button type="button" class="button button--block"[^>]*>Use this device<\/button>/);
    expect(html).toContain('Makes this device a tablet');
    expect(html).toContain('Sign in with a code instead');
    expect(html).toContain('href="/app/forgot-password"');
  });

  it('links the floor app to registering the screen as a TV or tablet (decision 1041)', () => {
    const plain = renderToStaticMarkup(<LoginForm appName="Takt Office" onSubmit={noop} />);
    expect(plain).not.toContain('Register this screen');
    const html = renderToStaticMarkup(
      <LoginForm appName="Takt Floor" onSubmit={noop} registerScreenHref="/tablet/register" />,
    );
    expect(html).toContain('<a href="/tablet/register">Register this screen (TV or tablet)</a>');
  });

  it('asks for the e-mail first on the code form', () => {
    const html = renderToStaticMarkup(
      <CodeLoginForm
        appName="Takt Office"
        onRequest={async () => ''}
        onSubmit={noop}
        onUsePassword={() => {}}
      />,
    );
    expect(html).toContain('E-mail me a code');
    expect(html).not.toContain('Code from the e-mail');
    expect(html).toContain('Sign in with a password instead');
  });
});
