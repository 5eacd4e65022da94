import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { ChangePasswordForm } from './PasswordTab';
import { ProfileForm } from './ProfileTab';

const USER = {
  id: '0b7d8f2e-1c4a-4c55-9a1e-2f6f3b1d9c10',
  email: 'jan@example.com',
  full_name: 'Jan',
  is_active: true,
  is_superuser: false,
  must_change_password: false,
};

describe('ProfileForm', () => {
  it('shows the profile; Edit gives inputs; Save only after a change, with an e-mail, and the current password when the e-mail changes', async () => {
    const onSubmit = jest.fn((_values: unknown) => Promise.resolve(true));
    const { user } = await renderUi(<ProfileForm user={USER} onSubmit={onSubmit} />);
    expect(screen.getByText('jan@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    const email = screen.getByRole('textbox', { name: /^Email/ });
    await user.clear(email);
    await user.tab();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(email, 'jan.nowak@example.com');
    const fullName = screen.getByRole('textbox', { name: /^Full name/ });
    expect(fullName).toHaveAttribute('maxLength', '30');
    // A new e-mail needs the current password (the API refuses the change without it).
    const current = await screen.findByLabelText(/^Obecne hasło/);
    expect(save).toBeDisabled();
    await user.type(current, 'jans-password-1');
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        full_name: 'Jan',
        email: 'jan.nowak@example.com',
        current_password: 'jans-password-1',
      }),
    );
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('Cancel puts the saved values back', async () => {
    const { user } = await renderUi(<ProfileForm user={USER} onSubmit={() => Promise.resolve(true)} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByRole('textbox', { name: /^Full name/ }), 'ek');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Jan')).toBeInTheDocument();
    expect(screen.queryByText('Janek')).not.toBeInTheDocument();
  });
});

describe('ChangePasswordForm', () => {
  it('uses the shared password rules and compares the confirmation with the new password', async () => {
    const onSubmit = jest.fn((_values: unknown) => Promise.resolve(true));
    const { user } = await renderUi(<ChangePasswordForm onSubmit={onSubmit} />);
    const current = screen.getByLabelText(/^Current Password/);
    const next = screen.getByLabelText(/^New Password/);
    const confirm = screen.getByLabelText(/^Confirm Password/);
    await user.click(current);
    await user.click(next);
    await user.click(confirm);
    await user.tab();
    expect(await screen.findAllByText('Podaj hasło')).toHaveLength(2);
    expect(screen.getByText('Password confirmation is required')).toBeInTheDocument();

    await user.type(current, 'old-password');
    await user.type(next, 'new-password-1');
    await user.type(confirm, 'new-password-2');
    await user.tab();
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    await user.clear(confirm);
    await user.type(confirm, 'new-password-1');
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        current_password: 'old-password',
        new_password: 'new-password-1',
        confirm_password: 'new-password-1',
      }),
    );
  });
});
