import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { toUserUpdate, userFormDefaults, UserForm } from './UserForm';

const USER = {
  id: '0b7d8f2e-1c4a-4c55-9a1e-2f6f3b1d9c10',
  email: 'ewa@example.com',
  full_name: 'Ewa',
  is_active: true,
  is_superuser: false,
  must_change_password: false,
};

describe('UserForm', () => {
  it('create: every required field has its message, and the passwords must match', async () => {
    const onSubmit = jest.fn(() => Promise.resolve(true));
    const { user } = await renderUi(<UserForm mode="create" onSubmit={onSubmit} onCancel={() => undefined} />);
    const email = screen.getByRole('textbox', { name: /^Email/ });
    const password = screen.getByLabelText(/^Set Password/);
    const confirm = screen.getByLabelText(/^Confirm Password/);
    await user.click(email);
    await user.click(password);
    await user.click(confirm);
    await user.tab();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();

    await user.type(email, 'ewa@');
    await user.type(password, 'Long-Enough-1');
    await user.type(confirm, 'Long-Enough-2');
    await user.tab();
    expect(await screen.findByText('Niepoprawny adres email')).toBeInTheDocument();
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('edit: the password may stay empty; a short one is refused', async () => {
    const onSubmit = jest.fn((_values: unknown) => Promise.resolve(true));
    const { user } = await renderUi(
      <UserForm mode="edit" user={USER} onSubmit={onSubmit} onCancel={() => undefined} />,
    );
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveValue('ewa@example.com');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled(); // nothing changed yet
    await user.type(screen.getByLabelText(/^Set Password/), 'short');
    await user.tab();
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Set Password/));
    await user.type(screen.getByRole('textbox', { name: /^Full name/ }), ' Nowak');
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ full_name: 'Ewa Nowak', password: '' });
  });

  it('leaves an empty password out of the update request', () => {
    expect(toUserUpdate({ ...userFormDefaults(USER), password: '' })).not.toHaveProperty('password');
    expect(
      toUserUpdate({ ...userFormDefaults(USER), password: 'New-Password-1', confirm_password: 'New-Password-1' }),
    ).toHaveProperty('password', 'New-Password-1');
  });
});
