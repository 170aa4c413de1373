import { Component, type ReactNode } from 'react';
import { errorMessage } from '../error-message.ts';
import { ErrorMessage } from './status.tsx';

/** Shows what broke instead of a blank page (React unmounts everything under a render that throws). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { message: string | null }> {
  override state: { message: string | null } = { message: null };

  static getDerivedStateFromError(error: unknown) {
    return { message: errorMessage(error) };
  }

  override render() {
    return this.state.message === null ? this.props.children : <ErrorMessage message={this.state.message} />;
  }
}
