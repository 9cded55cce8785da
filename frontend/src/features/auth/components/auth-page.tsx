import { LogIn, UserPlus } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AuthShowcase } from './auth-showcase';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

type AuthTab = 'login' | 'register';

/** /auth and /login: the Login and Register tabs. `?tab=register` opens the second one. */
export function AuthPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: AuthTab = searchParams.get('tab') === 'register' ? 'register' : 'login';

  const selectTab = (next: string) => {
    setSearchParams(
      (params) => {
        if (next === 'register') params.set('tab', 'register');
        else params.delete('tab');
        return params;
      },
      { replace: true },
    );
  };

  return (
    <div className="mx-auto grid w-full max-w-6xl items-center gap-8 px-4 py-8 sm:px-6 md:py-14 lg:grid-cols-[minmax(0,28rem)_minmax(0,1fr)] lg:gap-14 lg:px-8">
      <Card className="w-full max-w-md justify-self-center lg:max-w-none lg:justify-self-stretch">
        <CardHeader className="pb-4">
          <h1 className="text-2xl font-semibold tracking-tight">
            {tab === 'login' ? 'Welcome back' : 'Create your account'}
          </h1>
          <CardDescription>
            {tab === 'login'
              ? 'Log in to keep creating with Likeness.'
              : 'Sign up in seconds and get 5 free credits to start.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs value={tab} onValueChange={selectTab}>
            <TabsList className="mb-6 w-full">
              <TabsTrigger value="login">
                <LogIn className="size-4" aria-hidden="true" />
                Login
              </TabsTrigger>
              <TabsTrigger value="register">
                <UserPlus className="size-4" aria-hidden="true" />
                Register
              </TabsTrigger>
            </TabsList>
            <TabsContent value="login">
              <LoginForm />
            </TabsContent>
            <TabsContent value="register">
              <RegisterForm />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
      <AuthShowcase className="w-full max-w-md justify-self-center lg:max-w-none" />
    </div>
  );
}
