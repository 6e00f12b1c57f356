// widget.cc: C++ names for the demangling test.
#include <cstdlib>
#include <ctime>

namespace ns {
struct Widget {
	__attribute__((noinline)) double spin(int rounds);
};

double Widget::spin(int rounds)
{
	double x = 0;
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < 20000; i++)
			x += i * 0.5;
	return x;
}
} // namespace ns

volatile double sink;

int main(int argc, char **argv)
{
	ns::Widget w;
	std::clock_t end = std::clock() + (argc > 1 ? std::atoi(argv[1]) : 500) * (CLOCKS_PER_SEC / 1000);

	while (std::clock() < end)
		sink = w.spin(10);
	return 0;
}
