import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { SignUpForm } from './SignUpForm';

const setup = async () => {
  const onSubmit = jest.fn<Promise<void>, [unknown]>(() => Promise.resolve());
  const view = await renderUi(<SignUpForm onSubmit={onSubmit} />);
  return {
    ...view,
    onSubmit,
    fullName: screen.getByLabelText(/^Full Name/),
    email: screen.getByLabelText(/^Email/),
    password: screen.getByLabelText(/^Password/),
    confirm: screen.getByLabelText(/^Confirm Password/),
    button: screen.getByRole('button', { name: 'Sign Up' }),
  };
};

describe('SignUpForm', () => {
  it('shows the required messages of every field on blur', async () => {
    const { user, fullName, email, password, confirm } = await setup();
    for (const field of [fullName, email, password, confirm]) await user.click(field);
    await user.tab();
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Podaj hasło')).toBeInTheDocument();
    expect(screen.getByText('Password confirmation is required')).toBeInTheDocument();
  });

  it('refuses a malformed e-mail and passwords that do not match', async () => {
    const { user, email, password, confirm } = await setup();
    await user.type(email, 'ann@');
    await user.type(password, 'a-long-password');
    await user.type(confirm, 'another-password');
    await user.tab();
    expect(await screen.findByText('Niepoprawny adres email')).toBeInTheDocument();
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
  });

  it('rates the password Low, then High, in the strength bar', async () => {
    const { user, password } = await setup();
    await user.type(password, 'abc');
    expect(screen.getByTestId('password-strength')).toHaveTextContent('Low');
    await user.clear(password);
    await user.type(password, 'Furnace-Test-2025!');
    expect(screen.getByTestId('password-strength')).toHaveTextContent('High');
  });

  it('submits a valid form; Sign Up stays disabled until then', async () => {
    const { user, fullName, email, password, confirm, button, onSubmit } = await setup();
    expect(button).toBeDisabled();
    await user.type(fullName, 'Ann Nowak');
    await user.type(email, 'ann@example.com');
    await user.type(password, 'a-long-password');
    await user.type(confirm, 'a-long-password');
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ full_name: 'Ann Nowak', email: 'ann@example.com' });
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });
});
