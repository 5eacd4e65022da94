import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { LoginForm } from './LoginForm';

const setup = async () => {
  const onSubmit = jest.fn<Promise<void>, [unknown]>(() => Promise.resolve());
  const view = await renderUi(<LoginForm onSubmit={onSubmit} />);
  return {
    ...view,
    onSubmit,
    email: screen.getByLabelText(/Adres email/),
    password: screen.getByLabelText(/^Hasło/),
    button: screen.getByRole('button', { name: 'Zaloguj' }),
  };
};

describe('LoginForm', () => {
  it('asks for the e-mail and the password when they are left empty', async () => {
    const { user, email, password } = await setup();
    await user.click(email);
    await user.click(password);
    await user.tab();
    expect(await screen.findByText('Podaj adres email')).toBeInTheDocument();
    expect(await screen.findByText('Podaj hasło')).toBeInTheDocument();
  });

  it('refuses a malformed e-mail and a short password on blur', async () => {
    const { user, email, password } = await setup();
    await user.type(email, 'not-an-email');
    await user.type(password, 'short');
    await user.tab();
    expect(await screen.findByText('Niepoprawny adres email')).toBeInTheDocument();
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('keeps Zaloguj disabled until the form is valid, then submits the values', async () => {
    const { user, email, password, button, onSubmit } = await setup();
    expect(button).toBeDisabled();
    await user.type(email, 'staff@example.com');
    await user.type(password, 'changethis');
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ username: 'staff@example.com', password: 'changethis' });
  });
});
