import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { RecoverPasswordForm } from './RecoverPasswordForm';
import { ResetPasswordForm } from './ResetPasswordForm';

describe('RecoverPasswordForm', () => {
  it('requires a well-formed e-mail before Continue', async () => {
    const onSubmit = jest.fn(() => Promise.resolve(true));
    const { user } = await renderUi(<RecoverPasswordForm onSubmit={onSubmit} />);
    const email = screen.getByLabelText(/^Email/);
    const button = screen.getByRole('button', { name: 'Continue' });
    await user.click(email);
    await user.tab();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(email, 'x@y');
    await user.tab();
    expect(await screen.findByText('Niepoprawny adres email')).toBeInTheDocument();
    expect(button).toBeDisabled();
    await user.type(email, '.pl');
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ email: 'x@y.pl' }));
  });
});

describe('ResetPasswordForm', () => {
  it('checks the new password and its confirmation', async () => {
    const onSubmit = jest.fn(() => Promise.resolve());
    const { user } = await renderUi(<ResetPasswordForm onSubmit={onSubmit} />);
    const password = screen.getByLabelText(/^New Password/);
    const confirm = screen.getByLabelText(/^Confirm Password/);
    await user.click(password);
    await user.click(confirm);
    await user.tab();
    expect(await screen.findByText('Podaj hasło')).toBeInTheDocument();
    expect(screen.getByText('Password confirmation is required')).toBeInTheDocument();
    await user.type(password, 'short');
    await user.type(confirm, 'shorter');
    await user.tab();
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset Password' })).toBeDisabled();
  });
});
